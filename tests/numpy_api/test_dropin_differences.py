"""Calls where xnp used to answer differently from NumPy, each checked against NumPy's own
result or exception on the same inputs, eagerly and under ``xnp.jit``."""

import numpy as np
import pytest

import xnp
from tests.helpers import check_vs_numpy


def _numpy_error(call):
    """The exception NumPy raises for ``call()``."""
    with pytest.raises(Exception) as info:
        call()
    return info.value


# --------------------------------------------------------------------------- ndarray.var/std


@pytest.mark.parametrize("method", ["var", "std"])
@pytest.mark.parametrize("kwargs", [{"correction": 1}, {"correction": 0, "axis": 0},
                                    {"ddof": 1, "correction": 1}])
def test_ndarray_var_std_take_no_correction(method, kwargs):
    """NumPy's ndarray.var/std have no ``correction`` keyword (its functions do): TypeError
    naming the method and the keyword, eagerly and under jit."""
    x = np.arange(6.0).reshape(2, 3)
    err = _numpy_error(lambda: getattr(x, method)(**kwargs))
    assert type(err) is TypeError and "correction" in str(err)
    for run in (lambda f, v: f(v), lambda f, v: xnp.jit(f)(v)):
        with pytest.raises(TypeError, match=rf"{method}\(\) got an unexpected keyword "
                                            r"argument 'correction'"):
            run(lambda v: getattr(v, method)(**kwargs), xnp.asarray(x))
    # the functions take it, as NumPy's
    check_vs_numpy(lambda xp, v: getattr(xp, method)(v, **kwargs), x)
    check_vs_numpy(lambda xp, v: getattr(v, method)(axis=0, ddof=1), x)
