"""(sharding) A jitted matmul on 4 CPU devices (rows of ``a`` split over a 1-d mesh) vs
the same jitted matmul on one device, and a sharded elementwise chain likewise.

The device count is fixed when the XLA client starts, so the rows are measured in a
child process started with ``XNP_NUM_CPU_DEVICES=4``; both ways run in that child, on
inputs already placed (``device_put``) as the way needs them, and each call waits for
its result. On a machine with few cores the 4 devices share them, so this row shows the
partitioner's overhead as much as any speed-up. Reported, never asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from _harness import print_table

__all__ = ["main"]

N = 1024


def _child() -> None:
    import numpy as np

    import xnp
    from _harness import block, measure
    from xnp.sharding import Mesh, NamedSharding, PartitionSpec as P

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((N, N)), rng.standard_normal((N, N))
    x = rng.standard_normal((4 * N * N,))
    mesh = Mesh(np.array(xnp.devices()), ("x",))
    rows, rep = NamedSharding(mesh, P("x")), NamedSharding(mesh, P())

    def chain(v):
        return xnp.tanh(xnp.exp(-v * v) * 3.0 + xnp.sin(v)).sum()

    one_mm, one_chain = xnp.jit(xnp.matmul), xnp.jit(chain)
    sh_mm = xnp.jit(xnp.matmul, in_shardings=(rows, rep), out_shardings=rows)
    sh_chain = xnp.jit(chain, in_shardings=(rows,))
    d0 = xnp.devices()[0]
    a1, b1, x1 = (xnp.device_put(v, d0) for v in (a, b, x))
    a4, b4, x4 = xnp.device_put(a, rows), xnp.device_put(b, rep), xnp.device_put(x, rows)
    np.testing.assert_allclose(np.asarray(sh_mm(a4, b4)), np.asarray(one_mm(a1, b1)),
                               rtol=1e-9, atol=1e-9)
    out = {}
    for label, one, four in (
            (f"matmul f64[{N},{N}] @ f64[{N},{N}]", lambda: one_mm(a1, b1),
             lambda: sh_mm(a4, b4)),
            (f"tanh(exp(-x*x)*3 + sin x).sum(), f64[{4 * N * N}]", lambda: one_chain(x1),
             lambda: sh_chain(x4))):
        block(one()), block(four())
        st = measure({"one": lambda f=one: block(f()), "four": lambda f=four: block(f())},
                     repeat=5, warm=False)
        out[label] = (st["one"].median, st["four"].median)
    print(json.dumps(out))


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, XNP_NUM_CPU_DEVICES="4", TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.run([sys.executable, "-c", "import bench_sharded; bench_sharded._child()"],
                          cwd=here, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"bench_sharded child failed:\n{proc.stderr[-3000:]}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    rows = [(label, f"{one * 1e3:.2f}", f"{four * 1e3:.2f}", f"{one / four:.2f}x")
            for label, (one, four) in res.items()]
    print_table("sharded jit on 4 CPU devices (XNP_NUM_CPU_DEVICES=4) vs one device",
                ["case", "1 device ms", "4 devices ms", "speed-up"], rows,
                note=f"{os.cpu_count()} cores shared by the devices; inputs placed first; "
                     "each call waited for")


if __name__ == "__main__":
    main()
