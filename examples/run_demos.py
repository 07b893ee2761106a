"""Run the demos (``make demo``): logistic regression, a small network trained with
``xnp.grad``, and the solar-system N-body.

Each demo runs the same NumPy-style code three ways (NumPy, ``import xnp as np``
eagerly, and under ``xnp.jit``), prints timings, and checks that the three agree.
Exits with status 1 if any agreement check fails or a demo raises.
"""

from __future__ import annotations

import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import logistic_regression  # noqa: E402
import mlp_grad  # noqa: E402
import nbody  # noqa: E402

__all__ = ["main"]

DEMOS = (("logistic regression", logistic_regression), ("MLP with xnp.grad", mlp_grad),
         ("n-body", nbody))


def main() -> int:
    failed = []
    t_start = time.perf_counter()
    for title, module in DEMOS:
        print(f"=== {title} ({module.__name__}.py)")
        t0 = time.perf_counter()
        try:
            ok = module.main([])
        except Exception:  # report and go on with the next demo; the exit status says it failed
            traceback.print_exc(file=sys.stdout)
            ok = False
        print(f"--- {title}: {'OK' if ok else 'FAILED'} ({time.perf_counter() - t0:.1f} s)\n")
        if not ok:
            failed.append(title)
    total = time.perf_counter() - t_start
    if failed:
        print(f"demos FAILED: {', '.join(failed)} ({total:.1f} s)")
        return 1
    print(f"all demos agree across numpy / xnp eager / xnp.jit ({total:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
