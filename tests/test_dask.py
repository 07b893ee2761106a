"""Dask arrays of xnp chunks (xnp.dask) and pickling of xnp arrays and jitted functions.

Threaded scheduler: chunk types after Dask's elementwise ops, reductions, concatenate,
tensordot/@, einsum and rechunk, and the computed result, against NumPy. Process
workers (``dask.distributed.LocalCluster``, started once for the module): a jitted
kernel per chunk gives NumPy's values, xnp arrays, and one trace per worker.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import xnp
from tests.tolerances import rtol

da = pytest.importorskip("dask.array", reason="dask[array] is not installed (test extra)")
dask = pytest.importorskip("dask")
cloudpickle = pytest.importorskip("cloudpickle", reason="cloudpickle comes with dask")

RTOL = rtol(np.float64, "reduction")


def _blocks(d):
    """The computed chunks of a Dask array, on the threaded scheduler."""
    return dask.compute(*d.to_delayed().ravel(), scheduler="threads")


def _check(d, expected, rtol=RTOL):
    """Every chunk and the computed result are xnp arrays (NumPy's scalars where NumPy's
    are: a full reduction); the result equals NumPy's."""
    kind = type(expected) if isinstance(expected, np.generic) else xnp.Array
    for b in _blocks(d):
        assert type(b) is kind, type(b)
    res = d.compute(scheduler="threads")
    assert type(res) is kind, type(res)
    assert res.shape == np.shape(expected)
    assert res.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(np.asarray(res), expected, rtol=rtol)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((12, 10))
    b = rng.standard_normal((10, 8))
    x = da.from_array(xnp.asarray(a), chunks=(5, 4), asarray=False)  # ragged last chunks
    y = da.from_array(xnp.asarray(b), chunks=(4, 3), asarray=False)
    return a, b, x, y


def test_from_array_chunks_are_xnp(data):
    a, _, x, _ = data
    assert x.chunks == ((5, 5, 2), (4, 4, 2))
    _check(x, a)


@pytest.mark.parametrize("name", ["sin", "add_scalar", "mul_arrays", "where", "exp_int"])
def test_elementwise_keeps_xnp_chunks(data, name):
    a, _, x, _ = data
    cases = {
        "sin": (lambda m: da.sin(m), np.sin(a)),
        "add_scalar": (lambda m: m + 1, a + 1),
        "mul_arrays": (lambda m: m * m.T.T - 2.5, a * a - 2.5),
        "where": (lambda m: da.where(m > 0, m, 0.0), np.where(a > 0, a, 0.0)),
        "exp_int": (lambda m: da.exp((m * 10).astype(np.int32) // 3),
                    np.exp((a * 10).astype(np.int32) // 3)),
    }
    fn, expected = cases[name]
    _check(fn(x), expected, rtol=rtol(np.float64))


@pytest.mark.parametrize("name", ["sum0", "sum_all", "mean1", "var", "std0", "max", "argmin0",
                                  "prod_keepdims", "cumsum1"])
def test_reductions_keep_xnp_chunks(data, name):
    a, _, x, _ = data
    cases = {
        "sum0": (lambda m: m.sum(axis=0), a.sum(axis=0)),
        "sum_all": (lambda m: m.sum(), a.sum()),
        "mean1": (lambda m: m.mean(axis=1), a.mean(axis=1)),
        "var": (lambda m: m.var(), a.var()),
        "std0": (lambda m: m.std(axis=0, ddof=1), a.std(axis=0, ddof=1)),
        "max": (lambda m: m.max(), a.max()),
        "argmin0": (lambda m: m.argmin(axis=0), a.argmin(axis=0)),
        "prod_keepdims": (lambda m: (m / 2 + 1).prod(axis=1, keepdims=True),
                          (a / 2 + 1).prod(axis=1, keepdims=True)),
        "cumsum1": (lambda m: m.cumsum(axis=1), a.cumsum(axis=1)),
    }
    fn, expected = cases[name]
    _check(fn(x), expected)


def test_nan_reductions_keep_xnp_chunks():
    a = np.arange(20.0).reshape(4, 5)
    a[1, 2] = a[3, 0] = np.nan
    x = da.from_array(xnp.asarray(a), chunks=(3, 2), asarray=False)
    _check(da.nanmean(x, axis=0), np.nanmean(a, axis=0))
    _check(da.nansum(x), np.nansum(a))
    _check(da.nanvar(x, axis=1), np.nanvar(a, axis=1))


def test_linear_algebra_keeps_xnp_chunks(data):
    a, b, x, y = data
    _check(x @ y, a @ b)
    _check(da.tensordot(x, y, axes=([1], [0])), np.tensordot(a, b, axes=([1], [0])))
    _check(da.einsum("ij,jk->ik", x, y), np.einsum("ij,jk->ik", a, b))
    _check(da.dot(x.T, x), a.T @ a)


def test_dask_array_with_xnp_operand_stays_lazy(data):
    a, b, x, _ = data
    w = xnp.asarray(b)
    for lazy, expected in ((x @ w, a @ b), (x + w[:, 0], a + b[:, 0]),
                           (da.maximum(x, w[:, 1]), np.maximum(a, b[:, 1]))):
        assert isinstance(lazy, da.Array), type(lazy)
        _check(lazy, expected)


def test_xnp_operand_on_the_left_defers_to_dask(data):
    """An eager xnp array's binary operators return NotImplemented for an operand that
    overrides __array_ufunc__ (NumPy's rule), so Dask's reflected operator builds the lazy
    array; its chunks stay xnp arrays and the values are NumPy's."""
    a, b, x, _ = data
    v = b[:, 0]
    for got, want in ((xnp.asarray(v) + x, v + a), (xnp.asarray(v) * x, v * a),
                      (xnp.asarray(v) < x, v < a), (xnp.asarray(a.T) @ x, a.T @ a)):
        assert isinstance(got, da.Array), type(got)
        _check(got, want)


def test_concatenate_stack_rechunk_keep_xnp_chunks(data):
    a, _, x, _ = data
    _check(da.concatenate([x, x * 2], axis=0), np.concatenate([a, a * 2], axis=0))
    _check(da.concatenate([x, x], axis=1), np.concatenate([a, a], axis=1))
    _check(da.stack([x, x + 1], axis=1), np.stack([a, a + 1], axis=1))
    r = x.rechunk((4, 10))
    assert r.chunks == ((4, 4, 4), (10,))
    _check(r, a)
    _check(x.rechunk((12, 1)), a)
    _check(x[2:9, ::3], a[2:9, ::3])
    _check(x.T.reshape(-1), a.T.reshape(-1))


def test_fancy_indexing_and_percentile():
    v = np.random.default_rng(1).standard_normal(40)
    x = da.from_array(xnp.asarray(v), chunks=7, asarray=False)
    idx = np.array([3, 39, 0, 17, 17, 8])
    _check(x[idx], v[idx])
    # Dask's percentile merges per-chunk percentiles: approximate for several chunks,
    # exact for one
    one = da.from_array(xnp.asarray(v), chunks=40, asarray=False)
    res = da.percentile(one, [10.0, 50.0, 90.0]).compute(scheduler="threads")
    np.testing.assert_allclose(np.asarray(res), np.percentile(v, [10.0, 50.0, 90.0]), rtol=RTOL)


def _affine(b):
    return xnp.tanh(b) * 2.0 + xnp.arange(b.shape[1], dtype=b.dtype)


@xnp.jit
def _affine_jit(b):
    return _affine(b)


def test_map_blocks_with_jitted_function():
    a = np.random.default_rng(2).standard_normal((9, 6))
    kernel = xnp.jit(_affine)
    x = da.from_array(xnp.asarray(a), chunks=(3, 6), asarray=False)  # one chunk shape
    y = x.map_blocks(kernel, meta=xnp.empty((0, 0)))
    expected = np.tanh(a) * 2.0 + np.arange(6.0)
    _check(y, expected)
    _check(y.sum(axis=0), expected.sum(axis=0))
    assert kernel.trace_count == 1  # three chunks of one shape: one trace (meta given)
    # eager xnp function and ragged chunks: two chunk shapes, two traces
    ragged = da.from_array(xnp.asarray(a), chunks=(4, 6), asarray=False)
    kernel2 = xnp.jit(_affine)
    _check(ragged.map_blocks(kernel2, meta=xnp.empty((0, 0))), expected)
    assert kernel2.trace_count == 2
    _check(ragged.map_blocks(_affine, meta=xnp.empty((0, 0))), expected)


def test_dispatch_registered_for_xnp_arrays():
    from dask.array import dispatch
    from dask.sizeof import sizeof

    import xnp.dask as xd

    assert dispatch.concatenate_lookup.dispatch(xnp.Array) is xd._concatenate
    assert dispatch.tensordot_lookup.dispatch(xnp.Array) is xnp.numpy_api.tensordot
    from dask.array.chunk_types import is_valid_chunk_type

    assert is_valid_chunk_type(xnp.Array)
    a = xnp.ones((100, 10))
    assert sizeof(a) >= a.nbytes == 8000
    assert dask.base.tokenize(a) == dask.base.tokenize(xnp.ones((100, 10)))
    assert dask.base.tokenize(a) != dask.base.tokenize(xnp.ones((100, 10), dtype=np.float32))
    assert dask.base.tokenize(a) != dask.base.tokenize(np.ones((100, 10)))
    counts = dispatch.numel_lookup.dispatch(xnp.Array)(a, axis=(0,), keepdims=True)
    assert type(counts) is xnp.Array and counts.shape == (1, 10)
    np.testing.assert_array_equal(np.asarray(counts), np.full((1, 10), 100.0))


# --------------------------------------------------------------------------- pickling


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_eager_arrays_and_scalars_pickle(dumps):
    import ml_dtypes

    for value in (xnp.arange(12, dtype=np.int32).reshape(3, 4)[:, 1:3],
                  xnp.asarray(np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16)),
                  xnp.asarray(True), xnp.asarray(2.5), xnp.asarray(np.array([1 + 2j]))):
        back = pickle.loads(dumps(value))
        assert type(back) is xnp.Array
        assert back.dtype == value.dtype and back.shape == value.shape
        np.testing.assert_array_equal(np.asarray(back), np.asarray(value))
    assert pickle.loads(dumps(xnp.float64)) is xnp.float64
    assert pickle.loads(dumps(xnp.float64(2.5))) == np.float64(2.5)  # NumPy's scalar
    # a jit output (held on the device) pickles as its value; weak types survive
    out = xnp.jit(lambda v: v * 2)(xnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(pickle.loads(dumps(out))), [0.0, 2.0, 4.0])
    weak = xnp.jit(lambda s: s)(1.5)
    assert pickle.loads(dumps(weak))._weak == weak._weak


def test_jitted_function_pickles_by_reference_when_importable():
    blob = pickle.dumps(_affine_jit)
    assert b"_affine_jit" in blob and len(blob) < 200
    assert pickle.loads(blob) is _affine_jit
    assert cloudpickle.loads(cloudpickle.dumps(_affine_jit)) is _affine_jit


_X = np.array([3.0, 0.25, 2.0])


@pytest.mark.parametrize("path, args, expected", [
    ("sum", (_X,), np.sum(_X)),
    ("amax", (_X,), np.amax(_X)),
    ("sort", (_X,), np.sort(_X)),
    ("concat", ([_X, _X],), np.concatenate([_X, _X])),  # an alias of concatenate
    ("concatenate", ([_X, _X],), np.concatenate([_X, _X])),
    ("linalg.norm", (_X,), np.linalg.norm(_X)),
    ("fft.rfft", (_X,), np.fft.rfft(_X)),
    ("emath.log", (_X - 1j,), np.emath.log(_X - 1j)),  # complex: traceable
    ("special.expit", (_X,), 1 / (1 + np.exp(-_X))),
    ("polynomial.polynomial.polytrim", (_X,), np.polynomial.polynomial.polytrim(_X)),
])
def test_public_functions_and_their_jit_pickle_by_reference(path, args, expected):
    # as NumPy's functions do: plain pickle finds each under its module and name
    fn = xnp
    for part in path.split("."):
        fn = getattr(fn, part)
    assert pickle.loads(pickle.dumps(fn)) is fn
    assert pickle.loads(cloudpickle.dumps(fn)) is fn
    np.testing.assert_allclose(np.asarray(fn(*args)), expected, rtol=RTOL)
    if path.startswith("polynomial."):
        return  # runs NumPy's implementation on concrete coefficients: not traceable
    jitted = pickle.loads(pickle.dumps(xnp.jit(fn)))
    np.testing.assert_allclose(np.asarray(jitted(*args)), expected, rtol=RTOL)


def test_jitted_lambda_pickles_as_function_and_options():
    f = xnp.jit(lambda v, n: v * n + 1, static_argnums=1)
    blob = cloudpickle.dumps(f)
    assert cloudpickle.loads(blob) is f  # same process: the same wrapper
    assert len(blob) < 4000  # the function and options, no cache or executable
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(f)  # a lambda: plain pickle cannot carry it, as for the lambda itself
    g = cloudpickle.loads(cloudpickle.dumps(xnp.jit(lambda v: -v)))
    np.testing.assert_array_equal(np.asarray(g(xnp.arange(3.0))), [-0.0, -1.0, -2.0])


def test_jitted_function_rebuilds_with_its_options():
    f = xnp.jit(lambda v, w, *, n: v * n + w, static_argnames="n", donate_argnums=(1,))
    rebuild, (token, jit, fun, options) = f.__reduce__()
    assert jit is xnp.jit and fun is f.__wrapped__
    # a token this process has not seen: a new wrapper, built with the same options
    g = rebuild("not-seen-" + token, jit, fun, options)
    assert g is not f and rebuild("not-seen-" + token, jit, fun, options) is g
    assert (g._static_nums, g._static_names, g._donate) == (f._static_nums, f._static_names,
                                                            f._donate)
    out = g(xnp.arange(3.0), xnp.ones(3), n=2)
    np.testing.assert_array_equal(np.asarray(out), [1.0, 3.0, 5.0])
    g(xnp.arange(3.0), xnp.ones(3), n=2)
    assert g.trace_count == 1
    g(xnp.arange(3.0), xnp.ones(3), n=3)  # static: a new value retraces
    assert g.trace_count == 2


def test_register_is_idempotent():
    import xnp.dask as xd
    from dask.array import dispatch

    xd.register()
    xd.register()
    assert dispatch.concatenate_lookup.dispatch(xnp.Array) is xd._concatenate
    assert not any(isinstance(h, xd._DaskImportHook) for h in sys.meta_path)


_FRESH_PROCESS = textwrap.dedent("""
    import pickle, sys
    blob = sys.stdin.buffer.read()
    f, g = pickle.loads(blob), pickle.loads(blob)
    import xnp
    assert "dask" not in sys.modules, "import xnp imported dask"
    print(f is g, f._static_nums == frozenset({1}), f(xnp.arange(3.0), 2).tolist(),
          g(xnp.arange(3.0), 2).tolist(), f.trace_count)
    import dask.array
    from dask.array import dispatch
    import xnp.dask
    assert dispatch.concatenate_lookup.dispatch(xnp.Array) is xnp.dask._concatenate
    assert not any(isinstance(h, xnp.dask._DaskImportHook) for h in sys.meta_path)
    """)


@pytest.fixture(scope="module")
def fresh_process():
    """A new interpreter (started before the cluster, so the two overlap) that unpickles
    a jitted lambda twice, then imports xnp and, after it, dask.array."""
    blob = cloudpickle.dumps(xnp.jit(lambda v, n: v * n + 1, static_argnums=1))
    p = subprocess.Popen([sys.executable, "-c", _FRESH_PROCESS], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, PYTHONPATH=os.getcwd()))
    p.stdin.write(blob)
    p.stdin.close()
    p.stdin = None  # written and closed: communicate() only reads
    yield p
    if p.poll() is None:
        p.kill()
        p.wait()


# --------------------------------------------------------------------------- process workers


@pytest.fixture(scope="module")
def client(fresh_process):
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, timeout=90,
                                       silence_logs=50)
    cl = distributed.Client(cluster, timeout=90)
    try:
        cl.wait_for_workers(2, timeout=90)
        yield cl
    finally:
        cl.close(timeout=30)
        cluster.close(timeout=30)


def _trace_count(kernel):
    return kernel.trace_count


def _registered_in_worker():
    # a worker imports Dask (distributed) before xnp (when a task first needs it)
    from dask.array import dispatch

    import xnp.dask

    return dispatch.concatenate_lookup.dispatch(xnp.Array) is xnp.dask._concatenate


def test_local_cluster_runs_jitted_kernel_once_per_worker(client):
    a = np.random.default_rng(3).standard_normal((16, 5))
    expected = np.tanh(a) * 2.0 + np.arange(5.0)
    x = da.from_array(xnp.asarray(a), chunks=(2, 5), asarray=False)  # 8 chunks of one shape
    # 8 chunks of one shape; the first kernel pickles by value (function + options +
    # token), the second by reference (module-level @xnp.jit)
    kernels = (xnp.jit(_affine), _affine_jit)
    ys = [x.map_blocks(k, meta=xnp.empty((0, 0))) for k in kernels]
    wanted = [*ys, *(y.sum(axis=0) for y in ys), *ys[0].to_delayed().ravel()]
    results = [f.result(timeout=90) for f in client.compute(wanted)]
    for res, exp in zip(results, [expected, expected, expected.sum(axis=0),
                                  expected.sum(axis=0)]):
        assert type(res) is xnp.Array, type(res)
        np.testing.assert_allclose(np.asarray(res), exp, rtol=RTOL)
    assert len(results) == 4 + 8 and all(type(b) is xnp.Array for b in results[4:])
    for kernel in kernels:
        # every worker that ran a chunk traced the kernel exactly once: the wrapper a
        # worker unpickles for each task is one object per worker
        counts = client.run(_trace_count, kernel)
        assert len(counts) == 2
        assert set(counts.values()) <= {0, 1} and sum(counts.values()) >= 1, counts
    assert all(client.run(_registered_in_worker).values())


def test_fresh_process_unpickles_jitted_lambda_and_registers_after_import(fresh_process):
    out, err = fresh_process.communicate(timeout=120)
    assert fresh_process.returncode == 0, err.decode()
    assert out.decode().split() == ["True", "True", "[1.0,", "3.0,", "5.0]", "[1.0,",
                                    "3.0,", "5.0]", "1"]
