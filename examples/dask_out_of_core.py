"""An array several times larger than any process holds at once, through Dask with xnp chunks.

The data: ``rows x 16`` float64 values, generated chunk by chunk where they are used
(``dask.array.map_blocks`` with the chunk's index as the seed of its own NumPy
generator, wrapped as an xnp array), so the whole array never exists anywhere. Per
chunk a jitted xnp kernel computes a small random-feature model's statistics:
``h = tanh(x @ W + b)``, and the chunk's column sums of ``h`` and ``h**2``; Dask sums
the per-chunk rows (its own reduction, on xnp chunks) into the mean and variance of
every feature over the whole array.

It runs on a ``dask.distributed.LocalCluster`` of process workers (one thread each),
first on 1 of its workers, then on 2: the jitted kernel pickles as its function and
options, and each worker compiles it once (in its first pass); the second pass is warm.
Printed: the array and chunk sizes, the seconds and throughput (MB/s of generated
data, rows/s) of each pass, and a check against NumPy computing the same statistics
chunk by chunk in this process.

Run ``python examples/dask_out_of_core.py`` (``--rows``, ``--chunk-rows``,
``--workers``; ``--large`` for 8x the default rows). Exits with status 1 if Dask's
result and NumPy's disagree.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy

import xnp

__all__ = ["main", "make_data", "make_kernel", "run", "numpy_reference"]

N_COLS = 16
N_FEATURES = 32
SEED = 20260


def _block(block_id=None, *, chunk_rows, n_cols, seed):
    # one chunk, made where it is needed: its own generator seeded by (seed, chunk index)
    rng = numpy.random.default_rng((seed, block_id[0]))
    return xnp.asarray(rng.standard_normal((chunk_rows, n_cols)))


def make_data(rows: int, chunk_rows: int, seed: int = SEED):
    """A lazy ``rows x N_COLS`` float64 Dask array of xnp chunks (``rows`` a multiple of
    ``chunk_rows``)."""
    import dask.array as da

    if rows % chunk_rows:
        raise ValueError(f"dask_out_of_core: rows={rows} is not a multiple of "
                         f"chunk_rows={chunk_rows}")
    chunks = ((chunk_rows,) * (rows // chunk_rows), (N_COLS,))
    return da.map_blocks(_block, chunks=chunks, dtype=numpy.float64,
                         meta=xnp.empty((0, 0)), chunk_rows=chunk_rows, n_cols=N_COLS,
                         seed=seed)


def model_weights(seed: int = SEED):
    rng = numpy.random.default_rng(seed + 1)
    w = rng.standard_normal((N_COLS, N_FEATURES)) / numpy.sqrt(N_COLS)
    b = rng.uniform(-1.0, 1.0, N_FEATURES)
    return w, b


def _stats(np, x, w, b):
    # one chunk's (1, 2 * N_FEATURES) row: column sums of h and h**2
    h = np.tanh(x @ w + b)
    return np.concatenate([h.sum(axis=0), (h * h).sum(axis=0)])[None, :]


def make_kernel(seed: int = SEED):
    """The jitted per-chunk kernel (weights are constants of the compiled function)."""
    w, b = model_weights(seed)

    def chunk_stats(x):
        return _stats(xnp, x, w, b)

    return xnp.jit(chunk_stats)


def _mean_var(sums, rows):
    mean = sums[:N_FEATURES] / rows
    return mean, sums[N_FEATURES:] / rows - mean * mean


def _partials(data, kernel):
    # one (1, 2 * N_FEATURES) row of column sums per chunk
    return data.map_blocks(kernel, chunks=((1,) * data.numblocks[0], (2 * N_FEATURES,)),
                           meta=xnp.empty((0, 0)))


def _finish(client, partial, rows):
    return _mean_var(client.compute(partial.sum(axis=0)).result(), rows)


def run(data, kernel, client):
    """Mean and variance of every feature over ``data``, computed on ``client``'s
    cluster; returns ``(mean, var)`` as xnp arrays."""
    return _finish(client, _partials(data, kernel), data.shape[0])


def numpy_reference(rows: int, chunk_rows: int, seed: int = SEED):
    """The same statistics with NumPy, one chunk at a time in this process."""
    w, b = model_weights(seed)
    total = numpy.zeros(2 * N_FEATURES)
    for i in range(rows // chunk_rows):
        x = numpy.random.default_rng((seed, i)).standard_normal((chunk_rows, N_COLS))
        total += _stats(numpy, x, w, b)[0]
    return _mean_var(total, rows)


def throughput(rows: int, chunk_rows: int, workers, passes: int = 2):
    """``[(workers, pass, seconds, (mean, var))]`` for each worker count in ``workers``:
    one LocalCluster of ``max(workers)`` process workers (one thread each, xnp imported
    in each before timing), each count running on that many of its workers, ``passes``
    runs each (a worker's first run includes its compile of the kernel)."""
    import importlib

    import dask
    from distributed import Client, LocalCluster

    results = []
    with LocalCluster(n_workers=max(workers), threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=50) as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(max(workers))
        client.run(importlib.import_module, "xnp")
        addresses = sorted(client.scheduler_info()["workers"])
        data = make_data(rows, chunk_rows)
        kernel = make_kernel()
        for n in workers:
            for p in range(passes):
                t0 = time.perf_counter()
                with dask.annotate(workers=addresses[:n], allow_other_workers=False):
                    out = _finish(client, _partials(data, kernel), rows)
                results.append((n, p, time.perf_counter() - t0, out))
    return results


def main(argv=None) -> bool:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=800_000)
    parser.add_argument("--chunk-rows", type=int, default=50_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--large", action="store_true", help="8x the rows")
    args = parser.parse_args(argv)
    rows = args.rows * (8 if args.large else 1)
    mb = rows * N_COLS * 8 / 1e6
    chunk_mb = args.chunk_rows * N_COLS * 8 / 1e6
    print(f"array {rows} x {N_COLS} float64 = {mb:.0f} MB, generated in "
          f"{rows // args.chunk_rows} chunks of {chunk_mb:.1f} MB; each worker holds a few "
          "chunks at a time")
    results = throughput(rows, args.chunk_rows, args.workers)
    ref_mean, ref_var = numpy_reference(rows, args.chunk_rows)
    ok = True
    for n, p, seconds, (mean, var) in results:
        label = "first pass (incl. compile)" if p == 0 else "warm pass"
        print(f"{n} worker(s), {label}: {seconds:.2f} s, {mb / seconds:.0f} MB/s, "
              f"{rows / seconds / 1e6:.2f} M rows/s")
        agree = (type(mean) is xnp.Array
                 and numpy.allclose(numpy.asarray(mean), ref_mean, rtol=1e-10, atol=1e-12)
                 and numpy.allclose(numpy.asarray(var), ref_var, rtol=1e-10, atol=1e-12))
        ok = ok and agree
    print("Dask (xnp chunks) and NumPy agree" if ok else "Dask and NumPy DISAGREE")
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
