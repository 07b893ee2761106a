"""An exception (KeyboardInterrupt included) raised inside a traced function leaves no
trace state behind: the thread is back on the base eager trace, no thread is marked as
tracing, the jitted function's pending-trace bookkeeping is cleared, and the next call
traces and runs normally (compared with NumPy)."""

import numpy as np
import pytest

import xnp
from xnp.tracing import core

TRANSFORMS = {
    "jit": xnp.jit,
    "grad": xnp.grad,
    "vmap": xnp.vmap,
    "jit(grad)": lambda g: xnp.jit(xnp.grad(g)),
    "grad(jit)": lambda g: xnp.grad(xnp.jit(g)),
    "jit(vmap)": lambda g: xnp.jit(xnp.vmap(g)),
}


@pytest.mark.parametrize("exc", [KeyboardInterrupt, ValueError, RuntimeError])
@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_exception_inside_a_trace_leaves_no_state(name, exc):
    fail = [True]

    def f(x):
        y = xnp.sin(x) * 2.0
        if fail[0]:
            raise exc("inside the trace")
        return y.sum() if y.ndim else y

    wrapped = TRANSFORMS[name](f)
    arg = xnp.asarray(np.linspace(0.0, 1.0, 3)) if "vmap" in name else 0.5
    with pytest.raises(exc, match="inside the trace"):
        wrapped(arg)
    assert core._STATE.trace is core._BASE_TRACE
    assert not core._TRACING_THREADS
    assert type(xnp.add(xnp.ones(2), 1.0)) is xnp.Array  # eager again
    fail[0] = False
    out = np.asarray(wrapped(arg))
    x = np.asarray(arg)
    want = 2.0 * np.cos(x) if "grad" in name else 2.0 * np.sin(x)
    np.testing.assert_allclose(out, want, rtol=1e-15)
    if name == "jit":
        assert wrapped._cache.pending == {}  # no key left marked as being traced
        assert wrapped.trace_count == 1 and len(wrapped._cache) == 1  # the failed trace: none
