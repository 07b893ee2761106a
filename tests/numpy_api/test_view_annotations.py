"""What xnp records about traced views, layouts and rebound buffers lives on the tracers,
traces and arrays it describes and is freed with them (xnp/tracing/annotations.py,
xnp/numpy_api/_views.py, _layout.py, xnp/tracing/rebound.py).

Each test runs view-heavy code many times (under jit, grad, vmap, and from several
threads), checks its values against the same code run on NumPy, and checks with weak
references and ``gc`` that the tracers, traces, scopes and their records are gone after.
"""

import concurrent.futures as cf
import gc
import weakref

import numpy as np

import xnp
from xnp.tracing import core, rebound


def _writes_through_views(m, x, n):
    """``n`` writes through row and slice views of ``x`` (a copy), with live views that
    are re-read after every write; NumPy and xnp alike."""
    y = x * 1.0
    rows = [y[i] for i in range(y.shape[0])]
    tail = y[1:]
    for i in range(n):
        v = tail[i % (y.shape[0] - 1)]
        v[i % y.shape[1]] = v[(i + 1) % y.shape[1]] * 0.5 + i
    return y + rows[2][::-1].sum() + tail.T.reshape(-1)[: y.shape[1]]


X = np.arange(48.0).reshape(6, 8) / 7.0


def _expected(n=60):
    return _writes_through_views(np, X, n)


def test_writes_through_views_match_numpy_eagerly_and_under_jit():
    want = _expected()
    np.testing.assert_allclose(np.asarray(_writes_through_views(xnp, xnp.asarray(X), 60)),
                               want, rtol=1e-15)
    got = xnp.jit(lambda x: _writes_through_views(xnp, x, 60))(xnp.asarray(X))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-15)


def _drop_views(m, x, seen=None):
    """``_writes_through_views``, then 40 views made, written and dropped, and an F-ordered
    copy (a layout recorded on the tracer and in the jit trace) reshaped; ``seen`` gets
    weak references to the views, the copy and the trace."""
    out = _writes_through_views(m, x, 60)
    y = x * 1.0
    for i in range(40):
        v = y[i % 6]
        v[0] = float(i) + v[-1]
        if seen is not None:
            seen.append(weakref.ref(v))
    f_copy = y.copy(order="F")
    r = f_copy.T.reshape(-1)  # a view of an F-ordered array (NumPy: no copy)
    if seen is not None:
        seen.append(weakref.ref(f_copy))
        seen.append(weakref.ref(core.current_trace()))
        gc.collect()
        assert sum(w() is not None for w in seen[-42:-2]) <= 1  # only the last v is held
        assert len(y.annotation("views", [])) <= 2  # the base's record of them is pruned
    return out + r.reshape(6, 8) + y


def test_views_and_traces_are_freed_after_jit():
    seen = []
    f = xnp.jit(lambda x: _drop_views(xnp, x, seen))
    for k in range(15):
        x = X + k
        if k % 3:
            got = f(xnp.asarray(x))
            np.testing.assert_allclose(np.asarray(got), _drop_views(np, x), rtol=1e-15)
        else:  # traced again on each call
            xnp.make_jaxpr(lambda x: _drop_views(xnp, x, seen))(xnp.asarray(x))
    del got, f
    gc.collect()
    alive = [r for r in seen if r() is not None]
    assert len(seen) >= 6 * 42 and not alive, (  # 5 make_jaxpr traces, jit's one
        f"{len(alive)} of {len(seen)} tracers or traces are still alive")


def test_rebound_buffers_and_scopes_are_freed_after_grad_and_vmap():
    kept, scopes = [], []

    def f(s):
        y = xnp.zeros(40)
        for i in range(40):
            y[i] = s * i  # y is rebound to a tracer of grad's trace
        kept.append(y)  # the eager array outlives the function
        scopes.append(weakref.ref(rebound.current_scope()))
        return (y * y).sum()

    for k in range(20):
        s = 0.5 + k
        g = xnp.grad(f)(s)
        np.testing.assert_allclose(float(g), 2.0 * s * np.sum(np.arange(40.0) ** 2),
                                   rtol=1e-13)
    vals = xnp.vmap(f)(xnp.asarray(np.linspace(0.0, 1.0, 5)))
    np.testing.assert_allclose(np.asarray(vals), np.linspace(0.0, 1.0, 5) ** 2
                               * np.sum(np.arange(40.0) ** 2), rtol=1e-13)
    gc.collect()
    assert all(r() is None for r in scopes), "a scope is kept alive by an array it made"
    for y in kept:  # plain again: the eager value from before the traced writes
        assert rebound.resolve(y) is y
        note = getattr(y, "_scope_note", None)
        assert note is None or (not note.bindings and note.made_in is None)
        np.testing.assert_array_equal(np.asarray(y), np.zeros(40))


def test_views_traced_from_several_threads():
    fns = [xnp.jit(lambda x, n=n: _writes_through_views(xnp, x, n)) for n in (20, 35, 50)]

    def run(k):
        n = (20, 35, 50)[k % 3]
        return k, np.asarray(fns[k % 3](xnp.asarray(X + k))), n

    with cf.ThreadPoolExecutor(8) as ex:
        results = list(ex.map(run, range(24)))
    for k, got, n in results:
        np.testing.assert_allclose(got, _writes_through_views(np, X + k, n), rtol=1e-15)
