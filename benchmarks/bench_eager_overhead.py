"""(a) Eager overhead of small calls: xnp vs NumPy vs JAX side by side.

Tiny ops on 3-element float64 arrays (``add``, ``+``) and common NumPy-style calls on
3x4 float64 arrays (reductions, ``@``/``dot``, ``where``, reshape/transpose,
``concatenate``, creation and conversion), all served by xnp's eager fast path
(``xnp/numpy_api/_fastpath.py``); then (a3) calls outside its tables, which repeat a
recorded full path (``xnp/numpy_api/_replay.py``); JAX runs the same calls eagerly on device arrays
(``jax.numpy``, one cached executable per op). Then (a2) a Python loop of five
small eager ops per iteration on f64[10]. Target: xnp within 3x of NumPy's call.
"""

from __future__ import annotations

import itertools

import numpy

import _jax
import xnp
from _harness import compare

__all__ = ["main", "loop5"]

LOOP = 100  # iterations of loop5 per call


def _cases():
    """``(label, numpy_callable, xnp_callable, jax_callable or None)`` rows."""
    jax = _jax.load()
    jnp = jax.numpy if jax is not None else None
    a_np, b_np = numpy.arange(3.0), numpy.ones(3)
    a, b = xnp.asarray(a_np), xnp.asarray(b_np)
    x_np = numpy.arange(12.0).reshape(3, 4)
    y_np = numpy.ones((4, 3))
    c_np = x_np > 5.0
    x, y, c = xnp.asarray(x_np), xnp.asarray(y_np), xnp.asarray(c_np)
    if jax is not None:
        aj, bj, xj, yj, cj = _jax.put(a_np, b_np, x_np, y_np, c_np)

    def j(fn):
        return fn if jax is not None else None

    return [
        ("add(a, b) f64[3]", lambda: numpy.add(a_np, b_np), lambda: xnp.add(a, b),
         j(lambda: jnp.add(aj, bj))),
        ("a + b f64[3]", lambda: a_np + b_np, lambda: a + b, j(lambda: aj + bj)),
        ("sum(x)", lambda: numpy.sum(x_np), lambda: xnp.sum(x), j(lambda: jnp.sum(xj))),
        ("sum(x, axis=0)", lambda: numpy.sum(x_np, axis=0), lambda: xnp.sum(x, axis=0),
         j(lambda: jnp.sum(xj, axis=0))),
        ("x.sum(axis=1, keepdims)", lambda: x_np.sum(axis=1, keepdims=True),
         lambda: x.sum(axis=1, keepdims=True), j(lambda: xj.sum(axis=1, keepdims=True))),
        ("mean(x)", lambda: numpy.mean(x_np), lambda: xnp.mean(x), j(lambda: jnp.mean(xj))),
        ("prod(x, axis=1)", lambda: numpy.prod(x_np, axis=1), lambda: xnp.prod(x, axis=1),
         j(lambda: jnp.prod(xj, axis=1))),
        ("max(x)", lambda: numpy.max(x_np), lambda: xnp.max(x), j(lambda: jnp.max(xj))),
        ("x.min(axis=0)", lambda: x_np.min(axis=0), lambda: x.min(axis=0),
         j(lambda: xj.min(axis=0))),
        ("any(c)", lambda: numpy.any(c_np), lambda: xnp.any(c), j(lambda: jnp.any(cj))),
        ("all(c, axis=1)", lambda: numpy.all(c_np, axis=1), lambda: xnp.all(c, axis=1),
         j(lambda: jnp.all(cj, axis=1))),
        ("x @ y", lambda: x_np @ y_np, lambda: x @ y, j(lambda: xj @ yj)),
        ("matmul(x, y)", lambda: numpy.matmul(x_np, y_np), lambda: xnp.matmul(x, y),
         j(lambda: jnp.matmul(xj, yj))),
        ("dot(x, y)", lambda: numpy.dot(x_np, y_np), lambda: xnp.dot(x, y),
         j(lambda: jnp.dot(xj, yj))),
        ("where(c, x, x)", lambda: numpy.where(c_np, x_np, x_np),
         lambda: xnp.where(c, x, x), j(lambda: jnp.where(cj, xj, xj))),
        ("x.reshape(4, 3)", lambda: x_np.reshape(4, 3), lambda: x.reshape(4, 3),
         j(lambda: xj.reshape(4, 3))),
        ("reshape(x, (2, 6))", lambda: numpy.reshape(x_np, (2, 6)),
         lambda: xnp.reshape(x, (2, 6)), j(lambda: jnp.reshape(xj, (2, 6)))),
        ("x.T", lambda: x_np.T, lambda: x.T, j(lambda: xj.T)),
        ("transpose(x)", lambda: numpy.transpose(x_np), lambda: xnp.transpose(x),
         j(lambda: jnp.transpose(xj))),
        ("concatenate([x, x])", lambda: numpy.concatenate([x_np, x_np]),
         lambda: xnp.concatenate([x, x]), j(lambda: jnp.concatenate([xj, xj]))),
        ("zeros(5)", lambda: numpy.zeros(5), lambda: xnp.zeros(5), j(lambda: jnp.zeros(5))),
        ("ones((3, 4), float32)", lambda: numpy.ones((3, 4), numpy.float32),
         lambda: xnp.ones((3, 4), xnp.float32), j(lambda: jnp.ones((3, 4), jnp.float32))),
        ("full((3, 4), 2.0)", lambda: numpy.full((3, 4), 2.0), lambda: xnp.full((3, 4), 2.0),
         j(lambda: jnp.full((3, 4), 2.0))),
        ("asarray([1.0, 2.0])", lambda: numpy.asarray([1.0, 2.0]),
         lambda: xnp.asarray([1.0, 2.0]), j(lambda: jnp.asarray([1.0, 2.0]))),
        ("asarray(ndarray)", lambda: numpy.asarray(x_np), lambda: xnp.asarray(x_np),
         j(lambda: jnp.asarray(x_np))),
        ("array([[1, 2], [3, 4]])", lambda: numpy.array([[1, 2], [3, 4]]),
         lambda: xnp.array([[1, 2], [3, 4]]), j(lambda: jnp.array([[1, 2], [3, 4]]))),
    ]


def _replayed_cases():
    """Rows of calls outside the fast path's tables (mixed dtypes, axes, shape functions):
    their repeated calls are replays of the recorded full path (the eager dispatch cache,
    ``xnp/numpy_api/_replay.py``)."""
    jax = _jax.load()
    jnp = jax.numpy if jax is not None else None
    x_np = numpy.arange(12.0).reshape(3, 4)
    f_np = x_np.astype(numpy.float32)
    i_np = numpy.arange(12).reshape(3, 4)
    d_np = i_np + 1
    x, f, i, d = xnp.asarray(x_np), xnp.asarray(f_np), xnp.asarray(i_np), xnp.asarray(d_np)
    e_np = i_np % 3  # small non-negative exponents
    m_np = numpy.eye(4) * 4 + numpy.arange(16.0).reshape(4, 4) / 16  # invertible
    v_np = numpy.arange(4.0)
    e, m, v = xnp.asarray(e_np), xnp.asarray(m_np), xnp.asarray(v_np)
    n_np = x_np - 5  # negative entries: power(n, 0.5) meets 'invalid'
    n = xnp.asarray(n_np)
    if jax is not None:
        xj, fj, ij, dj = _jax.put(x_np, f_np, i_np, d_np)
        ej, mj, vj, nj = _jax.put(e_np, m_np, v_np, n_np)

    def j(fn):
        return fn if jax is not None else None

    ts = itertools.count(0.5, 0.25)  # (floats: a new value for each call of any column)
    ks = itertools.cycle(range(3, 40))  # (ints: a new value for each call, as a loop's)
    return [
        ("arctan2(x, f32)", lambda: numpy.arctan2(x_np, f_np), lambda: xnp.arctan2(x, f),
         j(lambda: jnp.arctan2(xj, fj))),
        ("maximum(i64, x)", lambda: numpy.maximum(i_np, x_np), lambda: xnp.maximum(i, x),
         j(lambda: jnp.maximum(ij, xj))),
        ("sin(i64)", lambda: numpy.sin(i_np), lambda: xnp.sin(i), j(lambda: jnp.sin(ij))),
        ("isnan(x)", lambda: numpy.isnan(x_np), lambda: xnp.isnan(x), j(lambda: jnp.isnan(xj))),
        ("argmax(x, axis=1)", lambda: numpy.argmax(x_np, axis=1),
         lambda: xnp.argmax(x, axis=1), j(lambda: jnp.argmax(xj, axis=1))),
        ("cumsum(x, axis=1)", lambda: numpy.cumsum(x_np, axis=1),
         lambda: xnp.cumsum(x, axis=1), j(lambda: jnp.cumsum(xj, axis=1))),
        ("expand_dims(x, 0)", lambda: numpy.expand_dims(x_np, 0),
         lambda: xnp.expand_dims(x, 0), j(lambda: jnp.expand_dims(xj, 0))),
        ("moveaxis(x, 0, 1)", lambda: numpy.moveaxis(x_np, 0, 1),
         lambda: xnp.moveaxis(x, 0, 1), j(lambda: jnp.moveaxis(xj, 0, 1))),
        ("stack([x, f])", lambda: numpy.stack([x_np, f_np]), lambda: xnp.stack([x, f]),
         j(lambda: jnp.stack([xj, fj]))),
        ("x.astype(float32)", lambda: x_np.astype(numpy.float32),
         lambda: x.astype(xnp.float32), j(lambda: xj.astype(jnp.float32))),
        ("linspace(0, 1, 5)", lambda: numpy.linspace(0, 1, 5), lambda: xnp.linspace(0, 1, 5),
         j(lambda: jnp.linspace(0, 1, 5))),
        # composites (xnp.lax.composite): eagerly NumPy's one loop, replayed as one call
        ("logaddexp(x, x)", lambda: numpy.logaddexp(x_np, x_np), lambda: xnp.logaddexp(x, x),
         j(lambda: jnp.logaddexp(xj, xj))),
        ("i64 // i64", lambda: i_np // d_np, lambda: i // d, j(lambda: ij // dj)),
        ("frexp(x)", lambda: numpy.frexp(x_np), lambda: xnp.frexp(x), j(lambda: jnp.frexp(xj))),
        ("gcd(i64, i64)", lambda: numpy.gcd(i_np, d_np), lambda: xnp.gcd(i, d),
         j(lambda: jnp.gcd(ij, dj))),
        # value checks as equations (lax.runtime_warning/runtime_error), checked each replay
        ("i64 ** i64", lambda: i_np ** e_np, lambda: i ** e, j(lambda: ij ** ej)),
        ("nanmax(x, axis=1)", lambda: numpy.nanmax(x_np, axis=1),
         lambda: xnp.nanmax(x, axis=1), j(lambda: jnp.nanmax(xj, axis=1))),
        ("percentile(x, 30)", lambda: numpy.percentile(x_np, 30),
         lambda: xnp.percentile(x, 30), j(lambda: jnp.percentile(xj, 30))),
        # general composites (xnp.lax.composite_general): eagerly one numpy.linalg call
        ("linalg.solve(4x4, 4)", lambda: numpy.linalg.solve(m_np, v_np),
         lambda: xnp.linalg.solve(m, v), j(lambda: jnp.linalg.solve(mj, vj))),
        ("linalg.inv(4x4)", lambda: numpy.linalg.inv(m_np), lambda: xnp.linalg.inv(m),
         j(lambda: jnp.linalg.inv(mj))),
        # several results, built and given NumPy's scalar rule in C
        ("linalg.eigh(4x4)", lambda: numpy.linalg.eigh(m_np), lambda: xnp.linalg.eigh(m),
         j(lambda: jnp.linalg.eigh(mj))),
        ("divmod(x, 0.7)", lambda: numpy.divmod(x_np, 0.7), lambda: xnp.divmod(x, 0.7),
         j(lambda: jnp.divmod(xj, 0.7))),
        # a floating-point error in a primitive (invalid: negative base), replayed
        ("power(x - 5, 0.5)", lambda: numpy.power(n_np, 0.5), lambda: xnp.power(n, 0.5),
         j(lambda: jnp.power(nj, 0.5))),
        # NumPy's function as the kernel of a composite; NumPy's read-only view
        ("interp(v, xp, fp)", lambda: numpy.interp(v_np, v_np, v_np),
         lambda: xnp.interp(v, v, v), j(lambda: jnp.interp(vj, vj, vj))),
        ("flip(x)", lambda: numpy.flip(x_np), lambda: xnp.flip(x), j(lambda: jnp.flip(xj))),
        ("diag(4x4)", lambda: numpy.diag(m_np), lambda: xnp.diag(m), j(lambda: jnp.diag(mj))),
        # NumPy's function of the values (a bounds check, a result sized by the values),
        # replayed with each call's values; JAX has no eager value-sized result: its
        # nonzero/argwhere/bincount read the values to the host first
        ("take(v, i64)", lambda: numpy.take(v_np, e_np), lambda: xnp.take(v, e),
         j(lambda: jnp.take(vj, ej))),
        ("take_along_axis", lambda: numpy.take_along_axis(x_np, e_np, axis=1),
         lambda: xnp.take_along_axis(x, e, axis=1),
         j(lambda: jnp.take_along_axis(xj, ej, axis=1))),
        ("nonzero(i64)", lambda: numpy.nonzero(e_np), lambda: xnp.nonzero(e),
         j(lambda: jnp.nonzero(ej))),
        ("argwhere(i64)", lambda: numpy.argwhere(e_np), lambda: xnp.argwhere(e),
         j(lambda: jnp.argwhere(ej))),
        ("bincount(i64[12])", lambda: numpy.bincount(e_np.ravel()),
         lambda: xnp.bincount(e.ravel()), j(lambda: jnp.bincount(ej.ravel()))),
        ("meshgrid(v, v)", lambda: numpy.meshgrid(v_np, v_np), lambda: xnp.meshgrid(v, v),
         j(lambda: jnp.meshgrid(vj, vj))),
        ("x.argsort()", lambda: x_np.argsort(), lambda: x.argsort(), j(lambda: xj.argsort())),
        ("outer(v, v)", lambda: numpy.outer(v_np, v_np), lambda: xnp.outer(v, v),
         j(lambda: jnp.outer(vj, vj))),
        ("squeeze(x) (itself)", lambda: numpy.squeeze(x_np), lambda: xnp.squeeze(x),
         j(lambda: jnp.squeeze(xj))),
        ("numpy.asarray(x)", lambda: numpy.asarray(x_np), lambda: numpy.asarray(x),
         j(lambda: numpy.asarray(xj))),
        # a Python bool (the truth of a replayed 0-d result, in C); value checks and
        # value-sized results as native calls; creation folded into one constant copy
        ("allclose(x, x)", lambda: numpy.allclose(x_np, x_np), lambda: xnp.allclose(x, x),
         j(lambda: jnp.allclose(xj, xj))),
        ("array_equal(x, x)", lambda: numpy.array_equal(x_np, x_np),
         lambda: xnp.array_equal(x, x), j(lambda: jnp.array_equal(xj, xj))),
        ("histogram(x)", lambda: numpy.histogram(x_np), lambda: xnp.histogram(x),
         j(lambda: jnp.histogram(xj))),
        ("isin(i64, i64)", lambda: numpy.isin(i_np, e_np), lambda: xnp.isin(i, e),
         j(lambda: jnp.isin(ij, ej))),
        ("intersect1d(i64, i64)", lambda: numpy.intersect1d(i_np, e_np),
         lambda: xnp.intersect1d(i, e), j(lambda: jnp.intersect1d(ij, ej))),
        ("compress(mask, x)", lambda: numpy.compress(e_np.ravel() > 0, x_np),
         lambda: xnp.compress(e.ravel() > 0, x), j(lambda: jnp.compress(ej.ravel() > 0, xj))),
        ("zeros_like(x)", lambda: numpy.zeros_like(x_np), lambda: xnp.zeros_like(x),
         j(lambda: jnp.zeros_like(xj))),
        ("eye(4)", lambda: numpy.eye(4), lambda: xnp.eye(4), j(lambda: jnp.eye(4))),
        # a Python float of a new value on every call (a loop over a parameter): one
        # program for every value; kernels with the decisions taken once; native calls
        ("hypot(v, t), a new t each call", lambda: numpy.hypot(v_np, next(ts)),
         lambda: xnp.hypot(v, next(ts)), j(lambda: jnp.hypot(vj, next(ts)))),
        ("v ** k, a new int k each call", lambda: v_np ** next(ks), lambda: v ** next(ks),
         j(lambda: vj ** next(ks))),
        ("clip(v, 0, t), a new t each call", lambda: numpy.clip(v_np, 0, next(ts)),
         lambda: xnp.clip(v, 0, next(ts)), j(lambda: jnp.clip(vj, 0, next(ts)))),
        ("shape(x)", lambda: numpy.shape(x_np), lambda: xnp.shape(x),
         j(lambda: jnp.shape(xj))),
        ("lexsort(x)", lambda: numpy.lexsort(x_np), lambda: xnp.lexsort(x),
         j(lambda: jnp.lexsort(xj))),
        ("digitize(x, v)", lambda: numpy.digitize(x_np, v_np), lambda: xnp.digitize(x, v),
         j(lambda: jnp.digitize(xj, vj))),
    ]


def _write_cases():
    """Rows of calls that write into an array: in-place operators and ufuncs with ``out=``
    (replayed as NumPy's ufunc with ``out``), item assignments (basic indices: NumPy's item
    assignment from C; index arrays: replayed), and a loop filling an array item by item.
    JAX has no in-place writes: no JAX column."""
    def make(m):
        y, z, o = m.zeros(4), m.ones(4), m.zeros(4)
        a, b, i = m.zeros(10), m.ones(3), m.asarray([1, 2, 3])

        def iadd():
            nonlocal y
            y += z

        def imul():
            nonlocal y
            y *= 1.0

        def fill():
            for k in range(10):
                a[k] = k * 0.5
        return {"y += z": iadd, "y *= 1.0": imul, "log(z, out=o)": lambda: m.log(z, out=o),
                "add(z, 1, out=o)": lambda: m.add(z, 1, out=o),
                "a[1:4] = 5.0": lambda: a.__setitem__(slice(1, 4), 5.0),
                "a[i] = b (index array)": lambda: a.__setitem__(i, b),
                "put(a, i, b)": lambda: m.put(a, i, b),
                "for k in range(10): a[k] = k * 0.5": fill}

    ways_np, ways_x = make(numpy), make(xnp)
    return [(label, {"numpy": ways_np[label], "xnp": ways_x[label]}) for label in ways_np]


def loop5(np, x, b, n: int = LOOP):
    """``n`` iterations of five small elementwise ops (mul, add, tanh, mul, sub)."""
    for _ in range(n):
        x = np.tanh(x * 0.9 + b) - 0.1 * x
    return x


def main() -> None:
    cases = [(label, {"numpy": f_np, "xnp": f_x, "jax": f_j})
             for label, f_np, f_x, f_j in _cases()]
    compare("(a) eager overhead, small calls (f64[3] / f64[3,4])", cases, repeat=7,
            layout="wide", note="target: xnp within 3x of numpy; jax: jax.numpy on device arrays")

    cases = [(label, {"numpy": f_np, "xnp": f_x, "jax": f_j})
             for label, f_np, f_x, f_j in _replayed_cases()]
    compare("(a3) eager calls outside the fast path's tables (replayed by the dispatch cache)",
            cases, repeat=7, layout="wide",
            note="xnp: the recorded full path replayed; XNP_EAGER_DISPATCH_CACHE=0 runs the "
                 "full path each call")

    compare("(a4) writes into arrays: in-place operators, out=, item assignment (f64[4], "
            "f64[10])", _write_cases(), repeat=7, layout="wide",
            note="before these were replayed (timeit, side by side): y += z 6.3 us, "
                 "log(z, out=o) 12 us, a[1:4] = 5.0 4.9 us, a[i] = b 7.4 us")

    jax = _jax.load()
    x_np, b_np = numpy.linspace(-1.0, 1.0, 10), numpy.full(10, 0.1)
    x, b = xnp.asarray(x_np), xnp.asarray(b_np)
    ways = {"numpy": (lambda: loop5(numpy, x_np, b_np), LOOP),
            "xnp": (lambda: loop5(xnp, x, b), LOOP), "jax": None}
    if jax is not None:
        xj, bj = _jax.put(x_np, b_np)
        ways["jax"] = (lambda: loop5(jax.numpy, xj, bj), LOOP)
    compare("(a2) a Python loop of five small eager ops (f64[10])",
            [("x = tanh(x * 0.9 + b) - 0.1 * x", ways)], repeat=7, layout="wide",
            per="iteration (five ops)")


if __name__ == "__main__":
    main()
