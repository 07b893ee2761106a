"""Run test cases that need several CPU devices in one child process.

The device count is fixed when the XLA client is created, so cases needing
``XNP_NUM_CPU_DEVICES=4`` live in a module of ``case_*`` functions (for example
``tests/sharding_cases.py``) whose ``main()`` is :func:`run_cases`; the parent test
module calls :func:`child_results` once (a module-scoped fixture) and reports each case
as its own test.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import traceback

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent


def case_names(namespace: dict) -> list[str]:
    """The ``case_*`` functions of a cases module, sorted."""
    return sorted(n for n, f in namespace.items() if n.startswith("case_") and callable(f))


def run_cases(namespace: dict) -> None:
    """Run every ``case_*`` of ``namespace`` (jaxprs type-checked, as under pytest) and
    print ``{name: "ok" or the traceback}`` as JSON on the last line."""
    from xnp.tracing import partial_eval  # noqa: PLC0415

    partial_eval.enable_typecheck(True)
    results = {}
    for name in case_names(namespace):
        try:
            namespace[name]()
            results[name] = "ok"
        except BaseException:  # noqa: BLE001  (reported to the parent test)
            results[name] = traceback.format_exc()
    print(json.dumps(results))


def child_results(module: str, num_devices: int = 4, timeout: float = 300) -> dict:
    """Run ``tests.<module>.main()`` in a child with ``num_devices`` CPU devices; its
    results by case name."""
    env = dict(os.environ, XNP_NUM_CPU_DEVICES=str(num_devices), TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.run([sys.executable, "-c", f"from tests import {module} as m; m.main()"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"child exited with {proc.returncode}:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def mesh1():
    """A 1-d mesh ``("x",)`` over every device (in a child started by :func:`child_results`)."""
    import xnp  # noqa: PLC0415  (the child's device count is set before xnp starts)
    from xnp.sharding import Mesh  # noqa: PLC0415
    return Mesh(np.array(xnp.devices()), ("x",))


def mesh2():
    """A 2x2 mesh ``("x", "y")`` over 4 devices."""
    import xnp  # noqa: PLC0415
    from xnp.sharding import Mesh  # noqa: PLC0415
    return Mesh(np.array(xnp.devices()).reshape(2, 2), ("x", "y"))


def close(a, b, rtol=1e-12):
    """``a`` and ``b`` (xnp or NumPy arrays) equal to ``rtol`` (and ``atol=1e-12``)."""
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-12)
