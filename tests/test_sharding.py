"""``xnp.sharding``, ``xnp.device_put`` and sharded ``jit`` on 4 CPU devices.

The 4-device cases live in ``tests/sharding_cases.py`` and run once, together, in a
child process started with ``XNP_NUM_CPU_DEVICES=4`` (the device count is fixed when
the XLA client is created); each case is reported here as its own test. The cases on
this process's single device run directly.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import xnp
from tests import sharding_cases
from xnp.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def four_device_results():
    env = dict(os.environ, XNP_NUM_CPU_DEVICES="4", TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.run([sys.executable, "-c", "from tests import sharding_cases as m; m.main()"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"child exited with {proc.returncode}:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("case", sharding_cases.CASES)
def test_on_four_cpu_devices(case, four_device_results):
    assert four_device_results.get(case) == "ok", four_device_results.get(case, "not run")


def test_one_device_by_default():
    assert xnp.config.get("num_cpu_devices") >= 1
    devs = xnp.devices()
    assert len(devs) == xnp.config.get("num_cpu_devices")
    x = np.arange(6.0).reshape(2, 3)
    a = xnp.device_put(x, SingleDeviceSharding(devs[0]))
    np.testing.assert_array_equal(np.asarray(a), x)
    assert a.sharding == SingleDeviceSharding(devs[0])
    (sh,) = a.addressable_shards
    assert sh.device == devs[0] and sh.index == (slice(0, 2), slice(0, 3))


def test_one_device_mesh_jit_is_the_single_device_program():
    mesh = Mesh(np.array(xnp.devices()[:1]), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = xnp.jit(lambda x: x * 2, in_shardings=s, out_shardings=s)
    x = np.arange(4.0)
    np.testing.assert_array_equal(np.asarray(f(x)), x * 2)
    assert "sdy" not in f.lower(x).as_text()


def test_partition_spec_and_mesh_errors():
    with pytest.raises(TypeError, match="PartitionSpec"):
        P(1)
    with pytest.raises(ValueError, match="axis_names"):
        Mesh(np.array(xnp.devices()[:1]), ("x", "y"))
    with pytest.raises(TypeError, match="in_shardings"):
        xnp.jit(lambda x: x, in_shardings=((None,),))
