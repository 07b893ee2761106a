"""Oracle helpers: compare xnp with NumPy (eager, under jit, and through
``eval_jaxpr(make_jaxpr(f))``), seeded input generation and case grids.

    check_vs_numpy(lambda xp, x: xp.sum(x, axis=0), x)

runs the body with ``xp = numpy`` (the oracle) and with ``xp = xnp`` eagerly,
under ``xnp.jit`` (second call must not retrace) and via the jaxpr; values,
shapes and dtypes must match (tolerances from ``tests/tolerances.py``). If
NumPy raises, xnp must raise an instance of the same public class.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import re
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import ml_dtypes
import numpy as np

import xnp
from tests import tolerances
from xnp.tracing import eval_jaxpr

EDGE_SHAPES = [(), (0,), (1,), (3, 1), (2, 0, 4)]
SMALL_SHAPES = EDGE_SHAPES + [(3,), (2, 3), (4, 1, 3), (2, 3, 4)]

BOOL = [np.dtype(np.bool_)]
SIGNED = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UNSIGNED = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
INTEGER = SIGNED + UNSIGNED
FLOATING = [np.dtype(t) for t in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64)]
COMPLEX = [np.dtype(np.complex64), np.dtype(np.complex128)]
INEXACT = FLOATING + COMPLEX
NUMERIC = INTEGER + INEXACT
ALL = BOOL + NUMERIC

FULL_GRID = [False]  # set by conftest from --full-grid


def python_frames(call: Callable, *args):
    """``(call(*args), names)``: the result, and the names of the Python functions the call
    ran (``sys.setprofile``; ``call`` itself included when it is a Python function)."""
    frames: list = []

    def profile(frame, event, arg):
        if event == "call":
            frames.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        out = call(*args)
    finally:
        sys.setprofile(None)
    return out, frames


def grid(n: int = 100, seed: int = 0, **axes) -> list:
    """Cartesian product of the named axes, sampled down to ``n`` cases with a fixed seed
    (all of them with ``--full-grid``). Each case is a namespace with the axis names."""
    names = list(axes)
    cases = [Case(**dict(zip(names, vals))) for vals in itertools.product(*axes.values())]
    if FULL_GRID[0] or len(cases) <= n:
        return cases
    return random.Random(seed).sample(cases, n)


def sample_of(values, *, keep=(), n: int, seed: int = 0) -> list:
    """``values`` (in order) cut down to those in ``keep`` and ``n`` others drawn with a
    fixed seed (all of them with ``--full-grid``)."""
    values = list(values)
    if FULL_GRID[0]:
        return values
    rest = [v for v in values if v not in keep]
    drawn = set(random.Random(seed).sample(rest, min(n, len(rest))))
    return [v for v in values if v in keep or v in drawn]


def covering_sample(cases, *, labels: Callable, n: int, seed: int = 0,
                    keep: Callable | None = None) -> list:
    """``cases`` (in order) cut down to about ``n`` with a fixed seed that still cover every
    label: those with ``keep(case)`` true, then for each label some case's ``labels(case)``
    gives (hashable: a dtype family, an axis value, a pair of them), at least one case
    with it (greedily, the case with the most labels not yet covered), then random others
    up to ``n``. All of them with ``--full-grid``."""
    cases = list(cases)
    if FULL_GRID[0] or len(cases) <= n:
        return cases
    order = random.Random(seed).sample(range(len(cases)), len(cases))
    tags = [list(dict.fromkeys(labels(c))) for c in cases]
    chosen = [i for i in range(len(cases)) if keep is not None and keep(cases[i])]
    kept = len(chosen)
    needed = {t for ts in tags for t in ts} - {t for i in chosen for t in tags[i]}
    holders = {}  # label -> the cases that have it
    for i, ts in enumerate(tags):
        for t in ts:
            holders.setdefault(t, []).append(i)
    gain = [sum(t in needed for t in ts) for ts in tags]  # labels still needed, per case
    while needed:
        best = max(order, key=gain.__getitem__)  # first of the best
        chosen.append(best)
        for t in tags[best]:
            if t in needed:
                needed.discard(t)
                for i in holders[t]:
                    gain[i] -= 1
    uses = {}
    for i in chosen:
        for t in tags[i]:
            uses[t] = uses.get(t, 0) + 1
    for i in reversed(chosen[kept:]):  # one whose labels the others all cover is dropped
        if all(uses[t] > 1 for t in tags[i]):
            chosen.remove(i)
            for t in tags[i]:
                uses[t] -= 1
    taken = set(chosen)
    for i in order:
        if len(taken) >= n:
            break
        taken.add(i)
    return [cases[i] for i in sorted(taken)]


def covering_grid(n: int = 100, seed: int = 0, *, labels: Callable | None = None,
                  keep: Callable | None = None, **axes) -> list:
    """The product of the named axes (as :func:`grid`) cut down by :func:`covering_sample`;
    by default every value of every axis is a label (each one occurs in the sample)."""
    names = list(axes)
    combos = list(itertools.product(*(range(len(v)) for v in axes.values())))
    cases = [Case(**{k: axes[k][i] for k, i in zip(names, ix)}) for ix in combos]
    if labels is None:  # (axis, position of its value): the values need not hash
        position = {id(c): ix for c, ix in zip(cases, combos)}
        labels = lambda c: list(zip(names, position[id(c)]))  # noqa: E731
    return covering_sample(cases, labels=labels, n=n, seed=seed, keep=keep)


def covering_pairs(values, *, labels: Callable, n: int, seed: int = 0, **axes) -> list:
    """The pytest params ``(case, value)`` of the product of the case ``axes`` (as
    :func:`grid`) with ``values``, ``case{i}-{value}`` with ``i`` the case's position in the
    product: what stacked ``parametrize("value", values)`` over ``parametrize("case",
    grid(...))`` gives with ``--full-grid``, cut down by :func:`covering_sample` to about
    ``n`` pairs that cover every label of ``labels(case, value)``."""
    import pytest  # noqa: PLC0415

    cases = [Case(**dict(zip(axes, v))) for v in itertools.product(*axes.values())]
    pairs = covering_sample([(i, v) for i in range(len(cases)) for v in values], n=n,
                            seed=seed, labels=lambda p: labels(cases[p[0]], p[1]))
    return [pytest.param(cases[i], v, id=f"case{i}-{v}") for i, v in pairs]


def reduction_labels(case, fname) -> list:
    """Labels of a (case, function) pair of a reduction grid (``case`` with ``shape``,
    ``dtype``, ``axis``, ``keepdims``), for :func:`covering_pairs`: the function with each
    dtype family, shape, axis and keepdims; each dtype; each shape with each axis (invalid
    ones raise NumPy's error)."""
    return [("function x dtype family", fname, family(case.dtype)),
            *[(f"function x {k}", fname, *v) for k, *v in axes_labels(
                case, "shape", "axis", "keepdims")],
            *axes_labels(case, "dtype", ("shape", "axis"))]


def axes_labels(case, *groups) -> list:
    """Labels of ``case`` for :func:`covering_sample`/:func:`covering_grid`: for each group
    (an axis name, or a tuple of them for each combination of their values) the group
    with the ``repr`` of the case's values, so that equal values of two axes (``None`` and
    ``None``) or of one (``1`` and ``True``) stay two labels."""
    values = vars(case)
    return [(g, *[repr(values[a]) for a in (g if type(g) is tuple else (g,))])
            for g in groups]


def family(dtype) -> str:
    """The dtype family a sample keeps at least once: bool, signed, unsigned, half
    (float16/bfloat16), float (float32/64), complex; a Python scalar marker is its own."""
    if isinstance(dtype, str) and dtype.startswith("py_"):
        return dtype
    dtype = np.dtype(dtype)
    if dtype.kind == "f" or dtype == np.dtype(ml_dtypes.bfloat16):
        return "half" if dtype.itemsize == 2 else "float"
    return {"b": "bool", "i": "signed", "u": "unsigned", "c": "complex"}.get(dtype.kind,
                                                                            dtype.name)


def primitive_family(name: str) -> str:
    """The primitive an op-table record (``tests/lax/op_table.py``) exercises, from its
    name: records that differ only in their parameters share it (``igamma_a0.5`` and
    ``igamma_a6``, ``scatter_add[rows,clip]`` and ``scatter_add[points]``,
    ``integer_pow_3`` and ``integer_pow_-2``, the ``conv_general_dilated-...``
    configurations, ``convert_to_f64`` and ``convert_to_u8``)."""
    n = re.sub(r"^convert_to_.*", "convert_to", re.split(r"\[|-", name)[0])
    return re.sub(r"(_[a-z]?[\d.]+)+$|_$", "", n)


def shape_kind(shape) -> str:
    """An op-table shape (one shape, or a tuple of operand shapes) as the kind a sample
    keeps at least once: ``empty`` (a zero-size operand), ``0-d`` (a scalar operand) or
    ``n-d``."""
    shapes = list(shape) if (shape and isinstance(shape[0], tuple)) else [shape]
    if any(0 in s for s in shapes):
        return "empty"
    return "0-d" if any(len(s) == 0 for s in shapes) else "n-d"


class Case:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return ",".join(f"{k}={_short(v)}" for k, v in self.__dict__.items())


def _short(v):
    if isinstance(v, np.dtype):
        return v.name
    return repr(v).replace(" ", "")


def make_array(rng: np.random.Generator, shape, dtype, kind: str = "normal") -> np.ndarray:
    """Random test data of ``dtype``: normals for floats (``kind='positive'`` for > 0),
    small ints, random bools; complex gets a random imaginary part."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo = 1 if kind == "positive" else max(info.min, -20)
        hi = min(info.max, 20)
        return rng.integers(lo, hi + 1, size=shape).astype(dtype)
    base = rng.standard_normal(shape)
    if kind == "positive":
        base = np.abs(base) + 0.1
    if dtype.kind == "c":
        base = base + 1j * rng.standard_normal(shape)
    return np.asarray(base).astype(dtype)


def assert_allclose(actual, expected, *, kind: str = "elementwise", check_dtype: bool = True,
                    err_msg: str = "", rtol: float | None = None, atol: float | None = None):
    """Compare an xnp result (or pytree of them) with a NumPy one: shape, dtype, values."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected), err_msg
        for a, e in zip(actual, expected):
            assert_allclose(a, e, kind=kind, check_dtype=check_dtype, err_msg=err_msg,
                            rtol=rtol, atol=atol)
        return
    assert not isinstance(actual, xnp.tracing.Tracer), f"got a tracer: {actual} {err_msg}"
    a = np.asarray(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != {e.shape} {err_msg}"
    if check_dtype:
        assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype} {err_msg}"
    if e.dtype.kind in "biu" and a.dtype.kind in "biu":
        np.testing.assert_array_equal(a, e, err_msg=err_msg)
        return
    r = tolerances.rtol(e.dtype, kind) if rtol is None else rtol
    t = tolerances.atol(e.dtype, kind) if atol is None else atol
    np.testing.assert_allclose(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                               e.astype(np.complex128 if e.dtype.kind == "c" else np.float64),
                               rtol=r, atol=t, equal_nan=True, err_msg=err_msg)


def _to_xnp(x):
    if isinstance(x, np.ndarray):
        return xnp.asarray(x)
    return x


def check_vs_numpy(body: Callable, *args, kind: str = "elementwise", check_dtype: bool = True,
                   jit: bool = True, jaxpr: bool = True, rtol=None, atol=None, static=()):
    """Run ``body(xp, *args)`` with NumPy and with xnp (eager, jit, eval_jaxpr) and compare.

    ``args`` are NumPy arrays or Python values; those at positions in ``static``
    are passed as static arguments under jit. If NumPy raises, every xnp path
    must raise an instance of the same class.
    """
    repro = f"body={getattr(body, '__name__', body)} args={[_describe(a) for a in args]}"
    try:
        expected = body(np, *args)
        np_error = None
    except Exception as e:  # the oracle decides the expected exception class
        np_error = e
    xargs = [_to_xnp(a) for a in args]

    def jit_body(*a):
        return body(xnp, *a)

    if np_error is not None:
        cls = type(np_error)
        if issubclass(cls, np.exceptions.AxisError):
            cls = np.exceptions.AxisError
        import pytest

        with pytest.raises(_public_base(cls)):
            body(xnp, *xargs)
        if jit:
            with pytest.raises(_public_base(cls)):
                xnp.jit(jit_body, static_argnums=static)(*xargs)
        return
    eager = body(xnp, *xargs)
    assert_allclose(eager, expected, kind=kind, check_dtype=check_dtype,
                    err_msg="eager " + repro, rtol=rtol, atol=atol)
    if jit:
        jf = xnp.jit(jit_body, static_argnums=static)
        out = jf(*xargs)
        assert_allclose(out, expected, kind=kind if kind != "elementwise" else "jit",
                        check_dtype=check_dtype, err_msg="jit " + repro, rtol=rtol, atol=atol)
        jf(*xargs)
        assert jf.trace_count == 1, "second call with equal avals retraced"
    if jaxpr and not static:
        closed = xnp.make_jaxpr(jit_body)(*xargs)
        leaves = xnp.tree_util.tree_leaves(xargs)
        outs = eval_jaxpr(closed.jaxpr, closed.consts, *leaves)
        exp_leaves = xnp.tree_util.tree_leaves(expected)
        assert_allclose(outs, list(exp_leaves) if isinstance(expected, (tuple, list)) else [expected],
                        kind=kind, check_dtype=check_dtype, err_msg="eval_jaxpr " + repro,
                        rtol=rtol, atol=atol)
    return eager


def _public_base(cls):
    """NumPy's private exception subclasses are matched by their public base."""
    name = cls.__module__ or ""
    if name.startswith("numpy") and cls.__name__.startswith("_"):
        for base in cls.__mro__[1:]:
            if not base.__name__.startswith("_"):
                return base
    return cls


def _describe(a):
    if isinstance(a, np.ndarray):
        return f"np.{a.dtype.name}{list(a.shape)}"
    return repr(a)


@dataclass
class OpRecord:
    """One primitive in the op table.

    ``fun(*arrays)`` calls the lax wrapper (params baked in); ``reference(*ndarrays)``
    is NumPy's answer; ``nargs`` array operands, drawn with ``sampler(rng, shape, dtype)``
    (default :func:`make_array`) for each shape in ``shapes`` and dtype in ``dtypes``.
    ``shapes`` entries are one shape (used for every operand) or a tuple of shapes.
    ``errors``: list of (args, exception class, message regex) for shape/dtype-rule errors.
    """

    name: str
    fun: Callable
    reference: Callable
    nargs: int
    dtypes: list
    shapes: list = field(default_factory=lambda: list(SMALL_SHAPES))
    sampler: Callable | None = None
    kind: str = "elementwise"
    rtol: float | None = None  # override; say why where used
    atol: float | None = None
    errors: list = field(default_factory=list)
    check_dtype: bool = True
    extra: Any = None


def central_difference(f, x, v, h: float = 1e-6):
    """``(f(x + h v) - f(x - h v)) / 2h`` with NumPy inputs and outputs (float64)."""
    return (np.asarray(f(xnp.asarray(x + h * v))) - np.asarray(f(xnp.asarray(x - h * v)))) / (
        2 * h)


@contextlib.contextmanager
def rules_of_other_families_may_be_missing(own: set):
    """A missing transformation rule of a primitive outside ``own`` is a visible skip; one
    inside ``own`` fails the test."""
    try:
        yield
    except NotImplementedError as e:
        m = re.search(r"primitive '(\w+)'", str(e))
        if m is None or m.group(1) in own:
            raise
        import pytest

        pytest.skip(f"{m.group(1)} lacks a rule yet (not implemented in xnp yet): {e}")


@contextlib.contextmanager
def quiet_runtime_warnings():
    """NumPy's RuntimeWarnings (empty means, NaN comparisons, overflow in references)
    silenced: tests compare values, and xnp returns the same NaN/inf as NumPy silently
    under jit. As an autouse fixture in a test module:
    ``_quiet = pytest.fixture(autouse=True)(helpers.quiet_fixture)``."""
    import warnings  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with np.errstate(all="ignore"):
            yield


def quiet_fixture():
    """Generator body of the autouse fixture (see :func:`quiet_runtime_warnings`)."""
    with quiet_runtime_warnings():
        yield


def run_threads(work: Callable, args) -> None:
    """``work(a)`` for each ``a`` of ``args``, each in its own thread, all at once; returns
    when every thread has finished (the work records its own failures)."""
    import threading  # noqa: PLC0415

    threads = [threading.Thread(target=work, args=(a,)) for a in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def outcome(call) -> tuple:
    """``call()``'s result, or the exception it raised (NumPy decides the expected class),
    and the warnings it issued (``warnings.WarningMessage`` list, every one recorded)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as e:  # noqa: BLE001
            out = e
    return out, list(caught)
