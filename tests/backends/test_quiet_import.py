"""Importing xnp and running a first jitted call prints nothing to stderr: XLA's C++
INFO logs (the PJRT client's device count when it is created) stay quiet unless the
user sets ``TF_CPP_MIN_LOG_LEVEL`` themselves."""

import os
import subprocess
import sys


def test_first_jit_call_prints_nothing():
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    code = "import xnp; print(float(xnp.jit(lambda x: x + 1)(1.0)))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "2.0"
    assert r.stderr == "", r.stderr[-2000:]
