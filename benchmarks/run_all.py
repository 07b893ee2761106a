"""Run every benchmark (``make bench``): tables of timings and ratios against NumPy and
JAX (when installed: ``make bench`` installs it in ``.venv-bench``), printed, never asserted.

Exits with status 1 only if a benchmark raised (e.g. an xnp function is missing),
never because of a timing.
"""

from __future__ import annotations

import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _jax  # noqa: E402
import bench_compile  # noqa: E402
import bench_dask  # noqa: E402
import bench_convolution  # noqa: E402
import bench_decompositions  # noqa: E402
import bench_demos  # noqa: E402
import bench_eager_large  # noqa: E402
import bench_eager_overhead  # noqa: E402
import bench_fft  # noqa: E402
import bench_gather_scatter  # noqa: E402
import bench_grad_step  # noqa: E402
import bench_jit_call  # noqa: E402
import bench_jit_chain  # noqa: E402
import bench_lax_ops  # noqa: E402
import bench_loop  # noqa: E402
import bench_matmul  # noqa: E402
import bench_random  # noqa: E402
import bench_sharded  # noqa: E402
import bench_special  # noqa: E402
from _harness import machine_line, print_summary  # noqa: E402

__all__ = ["main"]

BENCHMARKS = (bench_eager_overhead, bench_eager_large, bench_matmul, bench_jit_call,
              bench_compile, bench_jit_chain, bench_loop, bench_grad_step, bench_demos,
              bench_lax_ops, bench_gather_scatter, bench_convolution, bench_fft,
              bench_decompositions, bench_random, bench_special, bench_sharded, bench_dask)


def main() -> int:
    print(f"xnp benchmarks; {machine_line()}")
    if _jax.load() is None:
        print("JAX is not installed: the JAX rows and columns are left out "
              "(make bench installs it in .venv-bench)")
    failed = []
    for b in BENCHMARKS:
        try:
            b.main()
        except Exception:
            print(f"\n## {b.__name__}: FAILED")
            traceback.print_exc(file=sys.stdout)
            failed.append(b.__name__)
    print_summary()
    if failed:
        print(f"\nbenchmarks that raised: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
