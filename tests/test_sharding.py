"""``xnp.sharding``, ``xnp.device_put`` and sharded ``jit`` on 4 CPU devices.

The 4-device cases live in ``tests/sharding_cases.py`` and run once, together, in a
child process started with ``XNP_NUM_CPU_DEVICES=4`` (the device count is fixed when
the XLA client is created); each case is reported here as its own test. The cases on
this process's single device run directly.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from tests import multi_device, sharding_cases
from xnp.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding


@pytest.fixture(scope="module")
def four_device_results():
    return multi_device.child_results("sharding_cases")


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
