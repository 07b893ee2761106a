"""SciPy functions written on the Array API, called inside ``xnp.jit`` on xnp arrays (with
``SCIPY_ARRAY_API=1``, in one subprocess: SciPy reads it when first imported): each must
return an xnp array equal to the NumPy-input result (rtol 1e-10).

``scipy.special`` finds xnp's native functions as ``xnp.special.<name>``; ``stdtr`` (and so
``ttest_ind``'s p-value) is SciPy's generic implementation on ``xnp.special.betainc``.

``stats.pearsonr`` runs because ``capabilities()`` reports no boolean indexing while
``jit`` traces (array-api-extra's ``apply_where`` then takes its ``where`` path instead of
indexing with a traced mask). None of the listed calls fails today.
"""

import json
import os
import subprocess
import sys

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_CHILD = r'''
import json, warnings
import numpy as np
import xnp
from scipy import integrate, signal, special, stats
from scipy.cluster import vq

warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
a = rng.normal(size=40)
b = rng.normal(0.3, 1.2, size=35)
m = rng.normal(size=(12, 3))
k = rng.normal(size=7)
df = np.array([1.0, 3.5, 10.0, 40.0])
t = np.array([-2.0, 0.3, 4.0, -0.7])
CASES = {
    "stats.ttest_ind.statistic": (lambda x, y: stats.ttest_ind(x, y).statistic, (a, b)),
    "stats.ttest_ind.pvalue": (lambda x, y: stats.ttest_ind(x, y).pvalue, (a, b)),
    "stats.pearsonr.statistic": (lambda x, y: stats.pearsonr(x, y).statistic, (a[:35], b)),
    "stats.pearsonr.pvalue": (lambda x, y: stats.pearsonr(x, y).pvalue, (a[:35], b)),
    "special.stdtr": (special.stdtr, (df, t)),
    "special.logsumexp": (special.logsumexp, (a,)),
    "special.softmax": (special.softmax, (a,)),
    "stats.zscore": (stats.zscore, (a,)),
    "stats.skew": (stats.skew, (a,)),
    "signal.fftconvolve": (signal.fftconvolve, (a, k)),
    "cluster.vq.whiten": (vq.whiten, (m,)),
    "integrate.trapezoid": (integrate.trapezoid, (a,)),
}
out = {}
for name, (f, args) in CASES.items():
    ref = np.asarray(f(*args))
    try:
        res = xnp.jit(f)(*[xnp.asarray(v) for v in args])
    except Exception as e:
        out[name] = {"status": "raised", "detail": f"{type(e).__name__}: {str(e)[:300]}"}
        continue
    if not isinstance(res, xnp.ndarray):
        out[name] = {"status": "not an xnp array", "detail": type(res).__name__}
    elif not np.allclose(np.asarray(res), ref, rtol=1e-10, atol=0):
        out[name] = {"status": "mismatch", "detail": f"{np.asarray(res)} vs {ref}"}
    else:
        out[name] = {"status": "ok", "detail": ""}
print(json.dumps(out))
'''

NAMES = ["stats.ttest_ind.statistic", "stats.ttest_ind.pvalue", "stats.pearsonr.statistic",
         "stats.pearsonr.pvalue", "special.stdtr", "special.logsumexp", "special.softmax",
         "stats.zscore", "stats.skew", "signal.fftconvolve", "cluster.vq.whiten",
         "integrate.trapezoid"]


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    proc = subprocess.run([sys.executable, "-c", _CHILD], cwd=_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", NAMES)
def test_scipy_function_inside_jit_matches_numpy(results, name):
    res = results[name]
    assert res["status"] == "ok", f"{name}: {res['status']}: {res['detail']}"
