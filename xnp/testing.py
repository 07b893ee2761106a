"""``xnp.testing``: ``numpy.testing`` with xnp arrays accepted by the ``assert_*`` family.

Every name of ``numpy.testing.__all__`` is here. The functions that compare values
(the table ``_COMPARING`` below) convert each xnp array among their arguments (also
inside lists, tuples and dicts) with ``numpy.asarray`` and call NumPy's function, so
the checks, tolerances and failure messages are NumPy's; their signatures are
NumPy's too. A traced value cannot be compared (``TracerArrayConversionError``):
compare the outputs of the jitted function. The rest (``assert_raises``,
``assert_warns``, ``suppress_warnings``, ``TestCase``, the ``IS_*``/``HAS_*`` flags,
``overrides``, ...) are NumPy's own objects; the callables given to ``assert_raises``
and friends receive their arguments unchanged.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.testing as _npt

from xnp.numpy_api._util import is_xnp

__all__ = list(_npt.__all__)

# NumPy's functions that look at array values: wrapped to accept xnp arrays
_COMPARING = (
    "assert_", "assert_allclose", "assert_almost_equal", "assert_approx_equal",
    "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_compare",
    "assert_array_equal", "assert_array_less", "assert_array_max_ulp", "assert_equal",
    "assert_string_equal", "build_err_msg", "print_assert_equal",
)


def _to_numpy(x):
    if is_xnp(x):
        return np.asarray(x)
    if type(x) in (list, tuple):
        return type(x)(_to_numpy(v) for v in x)
    if type(x) is dict:
        return {k: _to_numpy(v) for k, v in x.items()}
    return x


def _accepting_xnp(name: str):
    fn = getattr(_npt, name)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows the caller's line
        return fn(*map(_to_numpy, args), **{k: _to_numpy(v) for k, v in kwargs.items()})

    wrapper.__module__ = __name__
    wrapper.__doc__ = (
        f"``numpy.testing.{name}`` with xnp arrays accepted wherever it takes an array.\n\n"
        "xnp arrays among the arguments (also inside lists, tuples and dicts) are compared "
        "as ``numpy.asarray(x)``: the check, the tolerances and the failure message are "
        f"NumPy's. Parameters, returns and raises: see ``numpy.testing.{name}``. A traced "
        "value raises ``xnp.errors.TracerArrayConversionError``.")
    return wrapper


globals().update({name: getattr(_npt, name) for name in __all__})
globals().update({name: _accepting_xnp(name) for name in _COMPARING})
