"""(dask) Dask ``map_blocks`` throughput with a jitted xnp kernel: 1 vs 2 process workers.

The workload of ``examples/dask_out_of_core.py`` at a smaller size (400000 x 16 float64
generated chunk by chunk, 16 chunks): each chunk made from its seed where it is used,
the jitted random-feature kernel applied, Dask's sum of the per-chunk rows. One
``LocalCluster`` of 2 process workers (one thread each); the rows are the warm pass
(each worker has compiled the kernel) on 1 and on 2 of them. Reported, never
asserted; skipped when Dask is not installed.
"""

from __future__ import annotations

from _harness import examples_on_path, print_table

__all__ = ["main"]

ROWS = 400_000
CHUNK_ROWS = 25_000


def main() -> None:
    try:
        import dask.array  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        print("\n## dask map_blocks throughput: skipped (dask[array] and distributed are not "
              "installed)")
        return
    examples_on_path()
    import dask_out_of_core as ooc

    results = ooc.throughput(ROWS, CHUNK_ROWS, workers=(1, 2), passes=2)
    mb = ROWS * ooc.N_COLS * 8 / 1e6
    warm = {n: s for n, p, s, _ in results if p == 1}
    rows = [(f"{n} worker{'s' if n > 1 else ''}", f"{s:.2f}", f"{mb / s:.0f}",
             f"{ROWS / s / 1e6:.2f}", f"{warm[1] / s:.2f}x") for n, s in sorted(warm.items())]
    print_table(f"dask map_blocks, jitted xnp kernel: {ROWS} x {ooc.N_COLS} float64 "
                f"({mb:.0f} MB) in {ROWS // CHUNK_ROWS} chunks, warm pass",
                ["workers", "s", "MB/s", "M rows/s", "vs 1 worker"], rows,
                note="LocalCluster of process workers, one thread each")


if __name__ == "__main__":
    main()
