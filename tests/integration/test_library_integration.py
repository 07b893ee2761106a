"""SciPy (with ``SCIPY_ARRAY_API=1``) and scikit-learn (with ``array_api_dispatch=True``) on
xnp arrays: every case in ``library_cases.py`` must return an xnp array (or the Python
scalar NumPy inputs give) equal to the NumPy-input result. The cases run in one subprocess,
because SciPy reads ``SCIPY_ARRAY_API`` when it is first imported.

Estimators that scikit-learn 1.9 does not port to the Array API (``KMeans`` and
``GaussianMixture(init_params='kmeans')``: Cython inner loops; under ``array_api_dispatch``
they fail the same way on array-api-strict inputs, and scikit-learn refuses the second
itself) run with dispatch off, where scikit-learn converts xnp inputs through
``__array__``: the ``sklearn-host`` cases assert NumPy results equal to NumPy-input ones."""

import json
import os
import subprocess
import sys

import pytest

from tests.integration.library_cases import case_names

pytest.importorskip("sklearn", reason="scikit-learn is installed by the test extra")

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    proc = subprocess.run([sys.executable, "-m", "tests.integration.library_cases"], cwd=_ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)


def test_at_least_forty_real_calls():
    names = case_names()
    assert len(names) >= 40 and len(set(names)) == len(names)


@pytest.mark.parametrize("name", case_names())
def test_library_call_on_xnp_arrays_matches_numpy(results, name):
    res = results[name]
    assert res["status"] == "ok", f"{name}: {res['status']} ({res['type']}): {res['detail']}"


def test_device_agrees_with_numpys():
    # libraries compare devices of mixed inputs: NumPy reports the host CPU as "cpu"
    import numpy as np

    import xnp

    x = xnp.asarray(np.arange(3.0))
    dev = x.device
    assert dev == "cpu" and "cpu" == dev and not (dev != np.arange(3.0).device)
    assert dev == xnp.jit(lambda a: a + 1)(x).device and hash(dev) == hash("cpu")
    assert dev != "gpu" and dev != 0
