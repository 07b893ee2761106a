"""``xnp.shard_map`` and the collectives of ``xnp.lax`` (psum, pmean, pmax, pmin,
all_gather, psum_scatter, ppermute, axis_index).

The 4-device cases live in ``tests/shard_map_cases.py`` and run together in one child
process with ``XNP_NUM_CPU_DEVICES=4`` (``tests/multi_device.py``); each is reported
here as its own test. The cases on this process's single device run directly.
"""

from __future__ import annotations

import numpy as np
import pytest

import xnp
from tests import multi_device, shard_map_cases
from xnp import lax
from xnp.sharding import Mesh, PartitionSpec as P


@pytest.fixture(scope="module")
def four_device_results():
    return multi_device.child_results("shard_map_cases")


@pytest.mark.parametrize("case", shard_map_cases.CASES)
def test_on_four_cpu_devices(case, four_device_results):
    assert four_device_results.get(case) == "ok", four_device_results.get(case, "not run")


def _mesh():
    return Mesh(np.array(xnp.devices()[:1]), ("x",))


def test_one_device_mesh_inlines_the_body():
    x = np.arange(6.0).reshape(3, 2)

    def body(b):
        g = lax.all_gather(b, "x")
        return (lax.psum(b, "x") + lax.axis_index("x"), g,
                lax.psum_scatter(g, "x"), lax.ppermute(b, "x", [(0, 0)]))

    f = xnp.shard_map(body, _mesh(), P("x"), (P("x"), P(), P(), P("x")))
    s, g, r, p = xnp.jit(f)(x)
    np.testing.assert_array_equal(np.asarray(s), x)
    np.testing.assert_array_equal(np.asarray(g), x[None])
    np.testing.assert_array_equal(np.asarray(r), x)
    np.testing.assert_array_equal(np.asarray(p), x)
    assert "sdy" not in xnp.jit(f).lower(x).as_text()


def test_jaxpr_names_the_mesh_and_the_axes():
    f = xnp.shard_map(lambda b: lax.pmean(b, "x"), _mesh(), P("x"), P())
    text = str(xnp.make_jaxpr(f)(np.ones(4)))
    assert "shard_map[" in text and "psum[axes=('x',)]" in text, text
    assert "in_names=((('x',),),)" in text and "out_names=(((),),)" in text, text


def test_grad_and_vmap_on_one_device():
    f = xnp.shard_map(lambda b: lax.psum(xnp.sum(b * b), "x"), _mesh(), P("x"), P())
    x = np.arange(4.0)
    np.testing.assert_allclose(np.asarray(xnp.grad(f)(x)), 2 * x)
    np.testing.assert_allclose(np.asarray(xnp.vmap(f)(np.stack([x, x + 1]))),
                               [np.sum(x * x), np.sum((x + 1) ** 2)])


def test_collective_outside_shard_map_names_the_unbound_axis():
    with pytest.raises(NameError, match=r"axis name 'i' is unbound.*shard_map"):
        lax.psum(np.ones(2), "i")
    with pytest.raises(NameError, match="'i' is unbound"):
        xnp.jit(lambda x: lax.all_gather(x, "i"))(np.ones(2))
    with pytest.raises(NameError, match="'i' is unbound"):
        xnp.vmap(lambda x: lax.pmax(x, "i"))(np.ones(2))
    for bad in (0, None, (), ("i", 1)):  # not a name: TypeError naming the function
        with pytest.raises(TypeError, match=r"xnp.lax.psum: `axis_name` must be a mesh axis"):
            lax.psum(np.ones(2), bad)


def test_spec_errors():
    with pytest.raises(ValueError, match=r"in_specs\[0\].*rank 1"):
        xnp.shard_map(lambda b: b, _mesh(), P("x", None), P())(np.ones(2))
    with pytest.raises(ValueError, match=r"out_specs.*rank 0"):
        xnp.shard_map(lambda b: b.sum(), _mesh(), P("x"), P("x"))(np.ones(2))
    with pytest.raises(ValueError, match="structure"):
        xnp.shard_map(lambda a, b: a, _mesh(), (P(),), P())(np.ones(2), np.ones(2))
    with pytest.raises(TypeError, match="Mesh"):
        xnp.shard_map(lambda b: b, "mesh", P(), P())
    with pytest.raises(NotImplementedError, match="check_rep"):
        xnp.shard_map(lambda b: b, _mesh(), P(), P(), check_rep=True)
