"""The two-operand special functions with both operands varying: values at the domain
edges (0, -0, negative, inf, NaN, poles) and random interior points, eagerly, under jit
and on the eager XLA backend, against SciPy; lax broadcasting; the dtype/shape errors."""

import numpy as np
import pytest
import scipy.special as sp

import xnp
from tests.helpers import assert_allclose
from xnp import lax

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

INF, NAN = np.inf, np.nan
GAMMA_EDGES = np.array([0.0, -0.0, 1e-30, 1e-3, 0.5, 1.0, 2.0, 30.0, -1.0, INF, NAN])
ZETA_X = np.array([1.0, 1.5, 2.0, 3.0, 10.0, 0.5, INF, -INF, NAN])
ZETA_Q = np.array([1.0, 0.5, 2.0, 0.0, -0.0, -1.0, -2.5, INF, -INF, NAN])
CASES = [
    ("igamma", lax.igamma, sp.gammainc, GAMMA_EDGES, GAMMA_EDGES),
    ("igammac", lax.igammac, sp.gammaincc, GAMMA_EDGES, GAMMA_EDGES),
    ("zeta", lax.zeta, sp.zeta, ZETA_X, ZETA_Q),
    ("polygamma", lax.polygamma, sp.polygamma, np.array([0.0, 1.0, 2.0, 3.0, 1.5, -1.0]),
     np.array([0.0, -0.0, 1.0, -1.0, -2.5, 0.5, 3.7, 200.0, INF, -INF, NAN])),
]


def _paths(f, a, b):
    yield "eager", f(xnp.asarray(a), xnp.asarray(b))
    yield "jit", xnp.jit(f)(a, b)
    with xnp.config.override(eager_backend="xla"):
        yield "eager-xla", f(xnp.asarray(a), xnp.asarray(b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,f,ref,first,second", CASES, ids=[c[0] for c in CASES])
def test_edges_match_scipy(name, f, ref, first, second, dtype):
    a = np.repeat(first, len(second)).astype(dtype)
    b = np.tile(second, len(first)).astype(dtype)
    expected = ref(a.astype(np.float64), b.astype(np.float64)).astype(dtype)
    for path, out in _paths(f, a, b):
        assert_allclose(out, expected, kind="reduction", err_msg=f"{name} {path}")


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
@pytest.mark.parametrize("f,ref", [(lax.igamma, sp.gammainc), (lax.igammac, sp.gammaincc)],
                         ids=["igamma", "igammac"])
def test_igamma_interior_and_broadcasting(f, ref, dtype):
    rng = np.random.default_rng(0)
    a = rng.uniform(0.05, 20, (40, 1)).astype(dtype)
    x = rng.uniform(0, 30, (1, 25)).astype(dtype)
    expected = ref(a.astype(np.float64), x.astype(np.float64)).astype(dtype)
    for path, out in _paths(f, a, x):
        assert_allclose(out, expected, kind="reduction", err_msg=path)
    scalar_a = np.asarray(3.0, dtype)
    assert_allclose(xnp.jit(f)(scalar_a, x), ref(3.0, x.astype(np.float64)).astype(dtype),
                    kind="reduction")


@pytest.mark.parametrize("f", [lax.igamma, lax.igammac, lax.polygamma, lax.zeta])
def test_rule_errors(f):
    name = f.__name__
    for args, exc, pattern in [((np.arange(3), np.arange(3)), TypeError, "floating"),
                               ((np.ones(3, np.float32), np.ones(3)), TypeError, "equal dtypes"),
                               ((np.ones(3), np.ones(4)), TypeError, "incompatible shapes")]:
        with pytest.raises(exc, match=f"xnp.lax.{name}.*{pattern}|{pattern}"):
            f(*[xnp.asarray(a) for a in args])
        with pytest.raises(exc, match=pattern):
            xnp.jit(f)(*args)
