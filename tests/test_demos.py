"""The demos of ``make demo`` (examples/run_demos.py) run and pass their own agreement
checks (NumPy vs ``import xnp as np`` eagerly vs ``xnp.jit``: values, and that the xnp
ways return xnp values), in a child process as a user runs them."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_make_demo_passes_its_checks():
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "run_demos.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "all demos agree" in proc.stdout
